1 REM HEAT-3D: 7-point 3-D heat stencil, two sweeps per time step
10 LET N = 6 : LET TSTEPS = 2
20 DIM A(6,6,6), B(6,6,6)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1
50 FOR K = 0 TO N - 1
60 LET A(I,J,K) = (I + J + (N - K)) * 10 / N : LET B(I,J,K) = A(I,J,K)
70 NEXT K
80 NEXT J
90 NEXT I
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N - 2
120 FOR J = 1 TO N - 2
130 FOR K = 1 TO N - 2
140 LET B(I,J,K) = 0.125 * (A(I+1,J,K) - 2 * A(I,J,K) + A(I-1,J,K)) + 0.125 * (A(I,J+1,K) - 2 * A(I,J,K) + A(I,J-1,K)) + 0.125 * (A(I,J,K+1) - 2 * A(I,J,K) + A(I,J,K-1)) + A(I,J,K)
150 NEXT K
160 NEXT J
170 NEXT I
210 FOR I = 1 TO N - 2
220 FOR J = 1 TO N - 2
230 FOR K = 1 TO N - 2
240 LET A(I,J,K) = 0.125 * (B(I+1,J,K) - 2 * B(I,J,K) + B(I-1,J,K)) + 0.125 * (B(I,J+1,K) - 2 * B(I,J,K) + B(I,J-1,K)) + 0.125 * (B(I,J,K+1) - 2 * B(I,J,K) + B(I,J,K-1)) + B(I,J,K)
250 NEXT K
260 NEXT J
270 NEXT I
280 NEXT T
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 FOR K = 0 TO N - 1
530 LET S = S + A(I,J,K) * (I + 2*J + 3*K)
540 NEXT K
545 NEXT J
548 NEXT I
550 PRINT "HEAT-3D"; S
