1 REM JACOBI-2D, the time loop made of IF ... THEN GOTO
10 N = 9: TSTEPS = 4
20 DIM A(9,9), B(9,9)
30 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: A(I,J) = (I*(J+2)+2) / N: B(I,J) = (I*(J+3)+3) / N: NEXT J: NEXT I
100 T = 0
105 IF T >= TSTEPS THEN GOTO 500
110 FOR I = 1 TO N - 2
120 FOR J = 1 TO N - 2
130 B(I,J) = 0.2 * (A(I,J) + A(I,J-1) + A(I,J+1) + A(I+1,J) + A(I-1,J))
140 NEXT J
150 NEXT I
160 FOR I = 1 TO N - 2
170 FOR J = 1 TO N - 2
180 A(I,J) = 0.2 * (B(I,J) + B(I,J-1) + B(I,J+1) + B(I+1,J) + B(I-1,J))
190 NEXT J
200 NEXT I
210 T = T + 1
220 GOTO 105
500 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: S = S + A(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "JACOBI-2D"; S
