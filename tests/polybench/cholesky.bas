1 REM CHOLESKY: in-place Cholesky decomposition (lower triangle)
10 LET N = 6
20 DIM A(6,6)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET A(I,J) = 1 / (I + J + 1) : NEXT J
50 LET A(I,I) = A(I,I) + N
60 NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO I - 1
120 FOR K = 0 TO J - 1
130 LET A(I,J) = A(I,J) - A(I,K) * A(J,K)
140 NEXT K
150 LET A(I,J) = A(I,J) / A(J,J)
160 NEXT J
170 FOR K = 0 TO I - 1
180 LET A(I,I) = A(I,I) - A(I,K) * A(I,K)
190 NEXT K
200 LET A(I,I) = SQR(A(I,I))
210 NEXT I
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO I
520 LET S = S + A(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "CHOLESKY"; S
