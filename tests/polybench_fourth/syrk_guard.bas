10 REM SYRK: lower triangle of C := ALPHA*A*A' + BETA*C (PolyBench/C 4.2), IF guards in full loops
20 DEFINT I-N: N = 14: M = 10: ALPHA = 1.5: BETA = 1.2
30 DIM A(N, M), C(N, N)
40 FOR I = 0 TO N - 1: FOR J = 0 TO M - 1: A(I, J) = ((I * J + 1) MOD N) / N: NEXT J, I
50 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: C(I, J) = ((I * J + 2) MOD M) / M: NEXT J, I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 IF J <= I THEN C(I, J) = C(I, J) * BETA
130 NEXT J
140 FOR K = 0 TO M - 1
150 FOR J = 0 TO N - 1
160 IF J <= I THEN C(I, J) = C(I, J) + ALPHA * A(I, K) * A(J, K)
170 NEXT J, K, I
500 T = 0: FOR I = 0 TO N - 1: FOR J = 0 TO I: T = T + C(I, J): NEXT J, I
510 PRINT USING "SYRK ######.###"; T
520 END
