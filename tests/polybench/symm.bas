1 REM SYMM: C = ALPHA*A*B + BETA*C with A symmetric (lower triangle stored)
10 LET M = 5 : LET N = 6 : LET ALPHA = 1.5 : LET BETA = 1.2
20 DIM A(5,5), B(5,6), C(5,6)
30 FOR I = 0 TO M - 1
40 FOR J = 0 TO M - 1 : LET A(I,J) = ((I+J) - INT((I+J)/M)*M)/M : NEXT J
50 FOR J = 0 TO N - 1 : LET B(I,J) = ((N+I-J) - INT((N+I-J)/N)*N)/N : LET C(I,J) = (I+J)/M : NEXT J
60 NEXT I
100 FOR I = 0 TO M - 1
110 FOR J = 0 TO N - 1
120 LET T2 = 0
130 FOR K = 0 TO I - 1
140 LET C(K,J) = C(K,J) + ALPHA * B(I,J) * A(I,K)
150 LET T2 = T2 + B(K,J) * A(I,K)
160 NEXT K
170 LET C(I,J) = BETA * C(I,J) + ALPHA * B(I,J) * A(I,I) + ALPHA * T2
180 NEXT J
190 NEXT I
500 FOR I = 0 TO M - 1
510 FOR J = 0 TO N - 1
520 LET S = S + C(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "SYMM"; S
