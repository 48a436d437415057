10 REM GRAMSCHMIDT (PolyBench/C 4.2): QR by modified Gram-Schmidt, norms by SQR
20 DEFINT I-N: M = 10: N = 8
30 DIM A(M, N), R(N, N), Q(M, N)
40 FOR I = 0 TO M - 1: FOR J = 0 TO N - 1
50 A(I, J) = (((I * J) MOD M) / M) * 100 + 10: Q(I, J) = 0
60 NEXT J, I
70 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: R(I, J) = 0: NEXT J, I
100 FOR K = 0 TO N - 1
110 SUMSQ = 0
120 FOR I = 0 TO M - 1: SUMSQ = SUMSQ + A(I, K) * A(I, K): NEXT I
130 R(K, K) = SQR(SUMSQ)
140 FOR I = 0 TO M - 1: Q(I, K) = A(I, K) / R(K, K): NEXT I
150 FOR J = K + 1 TO N - 1
160 R(K, J) = 0
170 FOR I = 0 TO M - 1: R(K, J) = R(K, J) + Q(I, K) * A(I, J): NEXT I
180 FOR I = 0 TO M - 1: A(I, J) = A(I, J) - Q(I, K) * R(K, J): NEXT I
190 NEXT J
200 NEXT K
500 FOR I = 0 TO N - 1 STEP 3: PRINT USING "###.#### "; R(I, I); R(0, I); Q(I, 1): NEXT I
510 END
