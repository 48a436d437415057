1 REM MVT: X1 = X1 + A * Y1 and X2 = X2 + A' * Y2
10 LET N = 7
20 DIM A(7,7), X1(7), X2(7), Y1(7), Y2(7)
30 FOR I = 0 TO N - 1
40 LET X1(I) = I / N : LET X2(I) = (I + 1) / N : LET Y1(I) = (I + 3) / N : LET Y2(I) = (I + 4) / N
50 FOR J = 0 TO N - 1
60 LET A(I,J) = (I*J)/N
70 NEXT J
80 NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 LET X1(I) = X1(I) + A(I,J) * Y1(J)
130 NEXT J
140 NEXT I
200 FOR I = 0 TO N - 1
210 FOR J = 0 TO N - 1
220 LET X2(I) = X2(I) + A(J,I) * Y2(J)
230 NEXT J
240 NEXT I
500 FOR I = 0 TO N - 1 : LET S = S + X1(I) - 2 * X2(I) : NEXT I
550 PRINT "MVT"; S
