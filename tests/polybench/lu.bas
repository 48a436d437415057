1 REM LU: in-place LU decomposition without pivoting
10 LET N = 6
20 DIM A(6,6)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET A(I,J) = 1 / (I + J + 1) : NEXT J
50 LET A(I,I) = A(I,I) + N
60 NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO I - 1
120 FOR K = 0 TO J - 1
130 LET A(I,J) = A(I,J) - A(I,K) * A(K,J)
140 NEXT K
150 LET A(I,J) = A(I,J) / A(J,J)
160 NEXT J
170 FOR J = I TO N - 1
180 FOR K = 0 TO I - 1
190 LET A(I,J) = A(I,J) - A(I,K) * A(K,J)
200 NEXT K
210 NEXT J
220 NEXT I
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 LET S = S + A(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "LU"; S
