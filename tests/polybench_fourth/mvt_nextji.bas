10 REM MVT: X1 := X1 + A Y1, X2 := X2 + A' Y2 (PolyBench/C 4.2), NEXT J, I
20 N = 16
30 DIM A(N, N), X1(N), X2(N), Y1(N), Y2(N)
40 FOR I = 0 TO N - 1
50 X1(I) = (I MOD N) / N: X2(I) = ((I + 1) MOD N) / N
60 Y1(I) = ((I + 3) MOD N) / N: Y2(I) = ((I + 4) MOD N) / N
70 FOR J = 0 TO N - 1: A(I, J) = (I * J MOD N) / N: NEXT J, I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 X1(I) = X1(I) + A(I, J) * Y1(J)
130 NEXT J, I
200 FOR I = 0 TO N - 1
210 FOR J = 0 TO N - 1
220 X2(I) = X2(I) + A(J, I) * Y2(J)
230 NEXT J, I
500 S1 = 0: S2 = 0
510 FOR I = 0 TO N - 1: S1 = S1 + X1(I): S2 = S2 + X2(I): NEXT I
520 PRINT USING "####.###"; S1; S2
530 END
