10 REM 2MM: D = ALPHA*A*B*C + BETA*D, 1-based, temporaries zeroed first
20 NI = 4 : NJ = 5 : NK = 3 : NL = 6 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(4,3), B(3,5), C(5,6), D(4,6), T(4,5)
40 FOR I = 1 TO NI : FOR K = 1 TO NK : A(I,K) = ((I*K+1) MOD NI)/NI : NEXT K : NEXT I
50 FOR K = 1 TO NK : FOR J = 1 TO NJ : B(K,J) = (K*(J+1) MOD NJ)/NJ : NEXT J : NEXT K
60 FOR J = 1 TO NJ : FOR L = 1 TO NL : C(J,L) = ((J*(L+3)+1) MOD NL)/NL : NEXT L : NEXT J
70 FOR I = 1 TO NI : FOR L = 1 TO NL : D(I,L) = (I*(L+2) MOD NK)/NK : NEXT L : NEXT I
100 FOR I = 1 TO NI
110 FOR J = 1 TO NJ
120 T(I,J) = 0
130 FOR K = 1 TO NK : T(I,J) = T(I,J) + ALPHA * A(I,K) * B(K,J) : NEXT K
140 NEXT J
150 NEXT I
200 FOR I = 1 TO NI
210 FOR L = 1 TO NL
220 D(I,L) = D(I,L) * BETA
230 FOR J = 1 TO NJ : D(I,L) = D(I,L) + T(I,J) * C(J,L) : NEXT J
240 NEXT L
250 NEXT I
500 FOR I = 1 TO NI : FOR L = 1 TO NL : S = S + D(I,L) * (I + L) : NEXT L : NEXT I
550 PRINT "2MM"; S
