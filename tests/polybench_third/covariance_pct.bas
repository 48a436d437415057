1 REM COVARIANCE with % loop variables and the mean in a scalar
10 M = 6: N = 8: FLN = N
20 DIM DAT(8,6), COV(6,6), MEAN(6)
30 FOR I% = 0 TO N - 1: FOR J% = 0 TO M - 1: DAT(I%,J%) = I% * J% / M: NEXT J%: NEXT I%
100 FOR J% = 0 TO M - 1
110 SM = 0
120 FOR I% = 0 TO N - 1: SM = SM + DAT(I%,J%): NEXT I%
130 MEAN(J%) = SM / FLN
140 NEXT J%
200 FOR I% = 0 TO N - 1
210 FOR J% = 0 TO M - 1: DAT(I%,J%) = DAT(I%,J%) - MEAN(J%): NEXT J%
220 NEXT I%
300 FOR I% = 0 TO M - 1
310 FOR J% = I% TO M - 1
320 C = 0
330 FOR K% = 0 TO N - 1: C = C + DAT(K%,I%) * DAT(K%,J%): NEXT K%
340 C = C / (FLN - 1)
350 COV(I%,J%) = C: COV(J%,I%) = C
360 NEXT J%
370 NEXT I%
500 FOR I% = 0 TO M - 1: FOR J% = 0 TO M - 1: S = S + COV(I%,J%) * (I% + 2*J%): NEXT J%: NEXT I%
550 PRINT "COVARIANCE"; S
