10 REM SYRK with a guard instead of a triangular bound, 1-based
20 N = 6 : M = 5 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(6,5), C(6,6)
40 FOR I = 1 TO N : FOR J = 1 TO M : A(I,J) = ((I*J+1) MOD N)/N : NEXT J : NEXT I
45 FOR I = 1 TO N : FOR J = 1 TO N : C(I,J) = ((I*J+2) MOD M)/M : NEXT J : NEXT I
100 FOR I = 1 TO N
110 FOR J = 1 TO N
120 IF J <= I THEN C(I,J) = C(I,J) * BETA
130 NEXT J
140 FOR K = 1 TO M
150 FOR J = 1 TO N
160 IF J <= I THEN C(I,J) = C(I,J) + ALPHA * A(I,K) * A(J,K)
170 NEXT J
180 NEXT K
190 NEXT I
500 FOR I = 1 TO N : FOR J = 1 TO N : S = S + C(I,J) * (I + 2*J) : NEXT J : NEXT I
550 PRINT "SYRK"; S
