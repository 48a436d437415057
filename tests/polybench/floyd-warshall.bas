1 REM FLOYD-WARSHALL: all-pairs shortest paths, in place
10 LET N = 7
20 DIM P(7,7)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1
50 LET P(I,J) = I * J - INT(I * J / 7) * 7 + 1
60 IF (I + J) - INT((I + J) / 13) * 13 = 0 OR (I + J) - INT((I + J) / 7) * 7 = 0 OR (I + J) - INT((I + J) / 11) * 11 = 0 THEN LET P(I,J) = 999
70 NEXT J
80 NEXT I
100 FOR K = 0 TO N - 1
110 FOR I = 0 TO N - 1
120 FOR J = 0 TO N - 1
130 IF P(I,K) + P(K,J) < P(I,J) THEN LET P(I,J) = P(I,K) + P(K,J)
140 NEXT J
150 NEXT I
160 NEXT K
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 LET S = S + P(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "FLOYD-WARSHALL"; S
