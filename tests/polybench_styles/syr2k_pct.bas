10 REM SYR2K, triangular, integer variables, 0-based
20 N% = 6 : M% = 4 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(5,3), B(5,3), C(5,5)
40 FOR I% = 0 TO N% - 1 : FOR J% = 0 TO M% - 1
50 A(I%,J%) = ((I%*J%+1) MOD N%)/N% : B(I%,J%) = ((I%*J%+2) MOD M%)/M%
60 NEXT J% : NEXT I%
70 FOR I% = 0 TO N% - 1 : FOR J% = 0 TO N% - 1 : C(I%,J%) = ((I%*J%+3) MOD N%)/M% : NEXT J% : NEXT I%
100 FOR I% = 0 TO N% - 1
110 FOR J% = 0 TO I%
120 C(I%,J%) = C(I%,J%) * BETA
130 NEXT J%
140 FOR K% = 0 TO M% - 1
150 FOR J% = 0 TO I%
160 C(I%,J%) = C(I%,J%) + A(J%,K%)*ALPHA*B(I%,K%) + B(J%,K%)*ALPHA*A(I%,K%)
170 NEXT J%
180 NEXT K%
190 NEXT I%
500 FOR I% = 0 TO N% - 1 : FOR J% = 0 TO N% - 1 : S = S + C(I%,J%) * (I% + 2*J%) : NEXT J% : NEXT I%
550 PRINT "SYR2K"; S
