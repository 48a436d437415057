10 REM SYMM: C := ALPHA*A*B + BETA*C, A symmetric, lower half stored (PolyBench/C 4.2)
20 DEFSNG A-Z: M% = 10: N% = 12: ALPHA = 1.5: BETA = 1.2
30 DIM A(M%, M%), B(M%, N%), C(M%, N%)
40 FOR I% = 0 TO M% - 1: FOR J% = 0 TO N% - 1
50 C(I%, J%) = ((I% + J%) MOD 100) / M%: B(I%, J%) = ((N% + I% - J%) MOD 100) / M%
60 NEXT J%, I%
70 FOR I% = 0 TO M% - 1: FOR J% = 0 TO I%: A(I%, J%) = ((I% + J%) MOD 100) / M%: NEXT J%
80 FOR J% = I% + 1 TO M% - 1: A(I%, J%) = -999: NEXT J%, I%
100 FOR I% = 0 TO M% - 1
110 FOR J% = 0 TO N% - 1
120 TEMP2 = 0
130 FOR K% = 0 TO I% - 1
140 C(K%, J%) = C(K%, J%) + ALPHA * B(I%, J%) * A(I%, K%)
150 TEMP2 = TEMP2 + B(K%, J%) * A(I%, K%)
160 NEXT K%
170 C(I%, J%) = BETA * C(I%, J%) + ALPHA * B(I%, J%) * A(I%, I%) + ALPHA * TEMP2
180 NEXT J%, I%
500 FOR I% = 0 TO M% - 1 STEP 3: PRINT USING "###.####"; C(I%, 0); C(I%, N% - 1): NEXT I%
510 END
