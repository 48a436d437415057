1 REM SEIDEL-2D: 9-point Gauss-Seidel stencil, in place (no parallel loop as written)
10 LET N = 8 : LET TSTEPS = 3
20 DIM A(8,8)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET A(I,J) = (I * (J + 2) + 2) / N : NEXT J
50 NEXT I
100 FOR T = 0 TO TSTEPS - 1
110 FOR I = 1 TO N - 2
120 FOR J = 1 TO N - 2
130 LET A(I,J) = (A(I-1,J-1) + A(I-1,J) + A(I-1,J+1) + A(I,J-1) + A(I,J) + A(I,J+1) + A(I+1,J-1) + A(I+1,J) + A(I+1,J+1)) / 9
140 NEXT J
150 NEXT I
160 NEXT T
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 LET S = S + A(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "SEIDEL-2D"; S
