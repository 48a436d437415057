10 REM 3MM: G := (A*B)*(C*D) (PolyBench/C 4.2), OPTION BASE 1 and % counters
20 OPTION BASE 1
30 READ NI%, NJ%, NK%, NL%, NM%
40 DATA 8, 9, 10, 11, 12
50 DIM A(NI%, NK%), B(NK%, NJ%), C(NJ%, NM%), D(NM%, NL%), E(NI%, NJ%), F(NJ%, NL%), G(NI%, NL%)
60 FOR I% = 1 TO NI%: FOR K% = 1 TO NK%: A(I%, K%) = ((I% * K% + 1) MOD NI%) / (5 * NI%): NEXT K%, I%
70 FOR I% = 1 TO NK%: FOR K% = 1 TO NJ%: B(I%, K%) = ((I% * (K% + 1) + 2) MOD NJ%) / (5 * NJ%): NEXT K%, I%
80 FOR I% = 1 TO NJ%: FOR K% = 1 TO NM%: C(I%, K%) = (I% * (K% + 3) MOD NL%) / (5 * NL%): NEXT K%, I%
90 FOR I% = 1 TO NM%: FOR K% = 1 TO NL%: D(I%, K%) = ((I% * (K% + 2) + 2) MOD NK%) / (5 * NK%): NEXT K%, I%
100 FOR I% = 1 TO NI%
110 FOR J% = 1 TO NJ%
120 SUM1 = 0
130 FOR K% = 1 TO NK%: SUM1 = SUM1 + A(I%, K%) * B(K%, J%): NEXT K%
140 E(I%, J%) = SUM1
150 NEXT J%, I%
200 FOR I% = 1 TO NJ%
210 FOR J% = 1 TO NL%
220 SUM2 = 0
230 FOR K% = 1 TO NM%: SUM2 = SUM2 + C(I%, K%) * D(K%, J%): NEXT K%
240 F(I%, J%) = SUM2
250 NEXT J%, I%
300 FOR I% = 1 TO NI%
310 FOR J% = 1 TO NL%
320 G(I%, J%) = 0
330 FOR K% = 1 TO NJ%: G(I%, J%) = G(I%, J%) + E(I%, K%) * F(K%, J%): NEXT K%
340 NEXT J%, I%
500 FOR I% = 1 TO NI% STEP 3
510 PRINT USING "##.####  "; G(I%, 1); G(I%, 5); G(I%, NL%)
520 NEXT I%
530 END
