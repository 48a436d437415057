1 REM GEMM, DEFINT I-N: C = ALPHA*A*B + BETA*C, several statements a line
5 DEFINT I-N
10 NI = 6: NJ = 7: NK = 5: ALPHA = 1.5: BETA = 1.2
20 DIM A(6,5), B(5,7), C(6,7)
30 FOR I = 0 TO NI - 1: FOR J = 0 TO NJ - 1: C(I,J) = ((I*J+1) MOD NI) / NI: NEXT J: NEXT I
40 FOR I = 0 TO NI - 1: FOR K = 0 TO NK - 1: A(I,K) = (I*(K+1) MOD NK) / NK: NEXT K: NEXT I
50 FOR K = 0 TO NK - 1: FOR J = 0 TO NJ - 1: B(K,J) = (K*(J+2) MOD NJ) / NJ: NEXT J: NEXT K
100 FOR I = 0 TO NI - 1
110 FOR J = 0 TO NJ - 1: C(I,J) = C(I,J) * BETA: NEXT J
150 FOR J = 0 TO NJ - 1
160 FOR K = 0 TO NK - 1: C(I,J) = C(I,J) + ALPHA * A(I,K) * B(K,J): NEXT K
170 NEXT J
180 NEXT I
500 FOR I = 0 TO NI - 1: FOR J = 0 TO NJ - 1: S = S + C(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "GEMM"; S
