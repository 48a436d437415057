1 REM BICG: S = A' * R and Q = A * P
10 LET M = 5 : LET N = 7
20 DIM A(7,5), R(7), P(5), S(5), Q(7)
30 FOR I = 0 TO N - 1
40 LET R(I) = I / N
50 FOR J = 0 TO M - 1
60 LET A(I,J) = (I*(J+1)+1)/N
70 NEXT J
80 NEXT I
90 FOR J = 0 TO M - 1 : LET P(J) = J / M : NEXT J
100 FOR I = 0 TO M - 1
110 LET S(I) = 0
120 NEXT I
130 FOR I = 0 TO N - 1
140 LET Q(I) = 0
150 FOR J = 0 TO M - 1
160 LET S(J) = S(J) + R(I) * A(I,J)
170 LET Q(I) = Q(I) + A(I,J) * P(J)
180 NEXT J
190 NEXT I
500 FOR J = 0 TO M - 1 : LET Z = Z + S(J) : NEXT J
510 FOR I = 0 TO N - 1 : LET Z = Z + Q(I) * 2 : NEXT I
550 PRINT "BICG"; Z
