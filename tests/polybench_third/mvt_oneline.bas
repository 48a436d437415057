1 REM MVT, each nest on one line: X1 = X1 + A*Y1, X2 = X2 + A'*Y2
10 N = 8
20 DIM A(8,8), X1(8), X2(8), Y1(8), Y2(8)
30 FOR I = 0 TO N - 1: X1(I) = (I MOD N) / N: X2(I) = ((I+1) MOD N) / N: Y1(I) = ((I+3) MOD N) / N: Y2(I) = ((I+4) MOD N) / N: NEXT I
40 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: A(I,J) = (I*J MOD N) / N: NEXT J: NEXT I
100 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: X1(I) = X1(I) + A(I,J) * Y1(J): NEXT J: NEXT I
200 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: X2(I) = X2(I) + A(J,I) * Y2(J): NEXT J: NEXT I
500 FOR I = 0 TO N - 1: S = S + X1(I) * (I + 1) + X2(I) * (I + 2): NEXT I
550 PRINT "MVT"; S
