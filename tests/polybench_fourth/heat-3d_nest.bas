10 REM HEAT-3D (PolyBench/C 4.2): bounds N - 2, NEXT K, J, I closing a nest, a FOR time loop
20 DEFINT I-N, T: N = 8: TSTEPS = 3
30 DIM A(N, N, N), B(N, N, N)
40 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: FOR K = 0 TO N - 1
50 A(I, J, K) = (I + J + (N - K)) * 10 / N: B(I, J, K) = A(I, J, K)
60 NEXT K, J, I
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N - 2
120 FOR J = 1 TO N - 2
130 FOR K = 1 TO N - 2
140 B(I, J, K) = .125 * (A(I + 1, J, K) - 2 * A(I, J, K) + A(I - 1, J, K)) + .125 * (A(I, J + 1, K) - 2 * A(I, J, K) + A(I, J - 1, K)) + .125 * (A(I, J, K + 1) - 2 * A(I, J, K) + A(I, J, K - 1)) + A(I, J, K)
150 NEXT K, J, I
210 FOR I = 1 TO N - 2: FOR J = 1 TO N - 2: FOR K = 1 TO N - 2
220 A(I, J, K) = .125 * (B(I + 1, J, K) - 2 * B(I, J, K) + B(I - 1, J, K)) + .125 * (B(I, J + 1, K) - 2 * B(I, J, K) + B(I, J - 1, K)) + .125 * (B(I, J, K + 1) - 2 * B(I, J, K) + B(I, J, K - 1)) + B(I, J, K)
230 NEXT K, J, I
240 NEXT T
500 S = 0: FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: FOR K = 0 TO N - 1: S = S + A(I, J, K): NEXT K, J, I
510 PRINT USING "HEAT ######.##"; S
520 END
