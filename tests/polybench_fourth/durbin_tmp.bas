10 REM DURBIN (PolyBench/C 4.2): Toeplitz solve, sums in scalars, Z() a temporary copy
20 DEFDBL A-H, O-Z: DEFINT I-N
30 N = 16
40 DIM R(N), Y(N), Z(N)
50 FOR I = 0 TO N - 1: R(I) = N + 1 - I: NEXT I
60 FOR I = 0 TO N - 1: R(I) = R(I) / (10 * N): NEXT I
100 Y(0) = -R(0): BETA = 1: ALPHA = -R(0)
110 FOR K = 1 TO N - 1
120 BETA = (1 - ALPHA * ALPHA) * BETA
130 SUM1 = 0
140 FOR I = 0 TO K - 1: SUM1 = SUM1 + R(K - I - 1) * Y(I): NEXT I
150 ALPHA = -(R(K) + SUM1) / BETA
160 FOR I = 0 TO K - 1: Z(I) = Y(I) + ALPHA * Y(K - I - 1): NEXT I
170 FOR I = 0 TO K - 1: Y(I) = Z(I): NEXT I
180 Y(K) = ALPHA
190 NEXT K
500 FOR I = 0 TO N - 1 STEP 3: PRINT USING "##.########"; Y(I): NEXT I
510 END
