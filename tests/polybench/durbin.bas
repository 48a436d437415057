1 REM DURBIN: Toeplitz system solver (Levinson-Durbin recursion)
10 LET N = 7
20 DIM R(7), Y(7), Z(7)
30 FOR I = 0 TO N - 1 : LET R(I) = N + 1 - I : NEXT I
40 FOR I = 0 TO N - 1 : LET R(I) = R(I) / (4 * N) : NEXT I
100 LET Y(0) = -R(0) : LET BETA = 1 : LET ALPHA = -R(0)
110 FOR K = 1 TO N - 1
120 LET BETA = (1 - ALPHA * ALPHA) * BETA
130 LET SM = 0
140 FOR I = 0 TO K - 1
150 LET SM = SM + R(K - I - 1) * Y(I)
160 NEXT I
170 LET ALPHA = -(R(K) + SM) / BETA
180 FOR I = 0 TO K - 1
190 LET Z(I) = Y(I) + ALPHA * Y(K - I - 1)
200 NEXT I
210 FOR I = 0 TO K - 1
220 LET Y(I) = Z(I)
230 NEXT I
240 LET Y(K) = ALPHA
250 NEXT K
500 FOR I = 0 TO N - 1 : LET S = S + Y(I) * (I + 1) : NEXT I
550 PRINT "DURBIN"; S
