10 REM FLOYD-WARSHALL (PolyBench/C 4.2): the minimum by IF ... THEN inside the nest, single paths
20 DEFINT I-N: N = 14
30 DIM PATHS(N, N)
40 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1
50 PATHS(I, J) = I * J MOD 7 + 1
60 IF (I + J) MOD 13 = 0 OR (I + J) MOD 7 = 0 OR (I + J) MOD 11 = 0 THEN PATHS(I, J) = 999
70 NEXT J, I
80 FOR I = 0 TO N - 1: PATHS(I, I) = 0: NEXT I
100 FOR K = 0 TO N - 1
110 FOR I = 0 TO N - 1
120 FOR J = 0 TO N - 1
130 IF PATHS(I, K) + PATHS(K, J) < PATHS(I, J) THEN PATHS(I, J) = PATHS(I, K) + PATHS(K, J)
140 NEXT J, I, K
500 S% = 0: FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: S% = S% + PATHS(I, J): NEXT J, I
510 PRINT "SUM OF PATHS"; S%: PRINT PATHS(1, N - 1); PATHS(N - 1, 2)
520 END
