1 REM TRISOLV: forward substitution L * X = B
10 LET N = 7
20 DIM L(7,7), X(7), B(7)
30 FOR I = 0 TO N - 1
40 LET X(I) = -999 : LET B(I) = I
50 FOR J = 0 TO I : LET L(I,J) = (I + N - J + 1) * 2 / N : NEXT J
60 NEXT I
100 FOR I = 0 TO N - 1
110 LET X(I) = B(I)
120 FOR J = 0 TO I - 1
130 LET X(I) = X(I) - L(I,J) * X(J)
140 NEXT J
150 LET X(I) = X(I) / L(I,I)
160 NEXT I
500 FOR I = 0 TO N - 1 : LET S = S + X(I) * (I + 1) : NEXT I
550 PRINT "TRISOLV"; S
