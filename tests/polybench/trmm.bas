1 REM TRMM: B = ALPHA * A' * B with A unit lower triangular
10 LET M = 5 : LET N = 6 : LET ALPHA = 1.5
20 DIM A(5,5), B(5,6)
30 FOR I = 0 TO M - 1
40 FOR J = 0 TO M - 1 : LET A(I,J) = ((I+J) - INT((I+J)/M)*M)/M : NEXT J
50 FOR J = 0 TO N - 1 : LET B(I,J) = ((N+I-J) - INT((N+I-J)/N)*N)/N : NEXT J
60 NEXT I
100 FOR I = 0 TO M - 1
110 FOR J = 0 TO N - 1
120 FOR K = I + 1 TO M - 1
130 LET B(I,J) = B(I,J) + A(K,I) * B(K,J)
140 NEXT K
150 LET B(I,J) = ALPHA * B(I,J)
160 NEXT J
170 NEXT I
500 FOR I = 0 TO M - 1
510 FOR J = 0 TO N - 1
520 LET S = S + B(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "TRMM"; S
