1 REM JACOBI-2D: 5-point stencil, two sweeps per time step
10 LET N = 8 : LET TSTEPS = 3
20 DIM A(8,8), B(8,8)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET A(I,J) = (I * (J + 2) + 2) / N : LET B(I,J) = (I * (J + 3) + 3) / N : NEXT J
50 NEXT I
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N - 2
120 FOR J = 1 TO N - 2
130 LET B(I,J) = 0.2 * (A(I,J) + A(I,J - 1) + A(I,J + 1) + A(I + 1,J) + A(I - 1,J))
140 NEXT J
150 NEXT I
160 FOR I = 1 TO N - 2
170 FOR J = 1 TO N - 2
180 LET A(I,J) = 0.2 * (B(I,J) + B(I,J - 1) + B(I,J + 1) + B(I + 1,J) + B(I - 1,J))
190 NEXT J
200 NEXT I
210 NEXT T
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 LET S = S + A(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "JACOBI-2D"; S
