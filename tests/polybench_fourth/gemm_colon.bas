10 REM GEMM: C := ALPHA*A*B + BETA*C (PolyBench/C 4.2), colons and NEXT J, I
20 DEFDBL A-H, O-Z: DEFINT I-N
30 NI = 10: NJ = 12: NK = 14
40 DIM A(NI, NK), B(NK, NJ), C(NI, NJ)
50 ALPHA = 1.5: BETA = 1.2
60 FOR I = 0 TO NI - 1: FOR J = 0 TO NJ - 1: C(I, J) = ((I * J + 1) MOD NI) / NI: NEXT J, I
70 FOR I = 0 TO NI - 1: FOR K = 0 TO NK - 1: A(I, K) = ((I * (K + 1)) MOD NK) / NK: NEXT K, I
80 FOR K = 0 TO NK - 1: FOR J = 0 TO NJ - 1: B(K, J) = ((K * (J + 2)) MOD NJ) / NJ: NEXT J, K
100 FOR I = 0 TO NI - 1
110 FOR J = 0 TO NJ - 1: C(I, J) = C(I, J) * BETA: NEXT J
120 FOR J = 0 TO NJ - 1
130 TMP = 0: FOR K = 0 TO NK - 1: TMP = TMP + ALPHA * A(I, K) * B(K, J): NEXT K
140 C(I, J) = C(I, J) + TMP
150 NEXT J, I
500 S = 0: FOR I = 0 TO NI - 1: FOR J = 0 TO NJ - 1: S = S + C(I, J): NEXT J, I
510 PRINT USING "CHECKSUM ######.####"; S
520 PRINT C(1, 2); C(NI - 1, NJ - 1)
530 END
