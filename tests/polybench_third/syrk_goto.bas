1 REM SYRK, the lower triangle chosen by IF ... THEN GOTO: C = ALPHA*A*A' + BETA*C
10 N = 7: M = 5: ALPHA = 1.5: BETA = 1.2
20 DIM A(7,5), C(7,7)
30 FOR I = 0 TO N - 1: FOR J = 0 TO M - 1: A(I,J) = ((I*J+1) MOD N) / N: NEXT J: NEXT I
40 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: C(I,J) = ((I*J+2) MOD M) / M: NEXT J: NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 IF J > I THEN GOTO 140
130 C(I,J) = C(I,J) * BETA
140 NEXT J
150 FOR J = 0 TO N - 1
155 IF J > I THEN GOTO 180
160 FOR K = 0 TO M - 1
170 C(I,J) = C(I,J) + ALPHA * A(I,K) * A(J,K)
175 NEXT K
180 NEXT J
190 NEXT I
500 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: S = S + C(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "SYRK"; S
