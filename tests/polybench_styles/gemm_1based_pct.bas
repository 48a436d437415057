10 REM GEMM, 1-based, integer loop variables
20 N% = 6 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(6,6), B(6,6), C(6,6)
40 FOR I% = 1 TO N% : FOR J% = 1 TO N%
50 A(I%,J%) = (I%*J%+1)/N% : B(I%,J%) = (I%+J%)/N% : C(I%,J%) = (I%-J%)/N%
60 NEXT J% : NEXT I%
100 FOR I% = 1 TO N%
110 FOR J% = 1 TO N% : C(I%,J%) = C(I%,J%) * BETA : NEXT J%
140 FOR K% = 1 TO N%
150 FOR J% = 1 TO N%
160 C(I%,J%) = C(I%,J%) + ALPHA * A(I%,K%) * B(K%,J%)
170 NEXT J%
180 NEXT K%
190 NEXT I%
500 FOR I% = 1 TO N% : FOR J% = 1 TO N% : S = S + C(I%,J%) * I% : NEXT J% : NEXT I%
550 PRINT "GEMM"; S
