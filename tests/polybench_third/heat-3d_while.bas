1 REM HEAT-3D, the time loop a WHILE, one statement a line of the nest joined by colons
10 N = 6: TSTEPS = 3
20 DIM A(6,6,6), B(6,6,6)
30 FOR I = 0 TO N-1: FOR J = 0 TO N-1: FOR K = 0 TO N-1: A(I,J,K) = (I + J + (N-K)) * 10 / N: B(I,J,K) = A(I,J,K): NEXT K: NEXT J: NEXT I
100 T = 1
105 WHILE T <= TSTEPS
110 FOR I = 1 TO N-2: FOR J = 1 TO N-2: FOR K = 1 TO N-2
140 B(I,J,K) = 0.125 * (A(I+1,J,K) - 2 * A(I,J,K) + A(I-1,J,K)) + 0.125 * (A(I,J+1,K) - 2 * A(I,J,K) + A(I,J-1,K)) + 0.125 * (A(I,J,K+1) - 2 * A(I,J,K) + A(I,J,K-1)) + A(I,J,K)
150 NEXT K: NEXT J: NEXT I
210 FOR I = 1 TO N-2: FOR J = 1 TO N-2: FOR K = 1 TO N-2
240 A(I,J,K) = 0.125 * (B(I+1,J,K) - 2 * B(I,J,K) + B(I-1,J,K)) + 0.125 * (B(I,J+1,K) - 2 * B(I,J,K) + B(I,J-1,K)) + 0.125 * (B(I,J,K+1) - 2 * B(I,J,K) + B(I,J,K-1)) + B(I,J,K)
250 NEXT K: NEXT J: NEXT I
260 T = T + 1
270 WEND
500 FOR I = 0 TO N-1: FOR J = 0 TO N-1: FOR K = 0 TO N-1: S = S + A(I,J,K) * (I + 2*J + 3*K): NEXT K: NEXT J: NEXT I
550 PRINT "HEAT-3D"; S
