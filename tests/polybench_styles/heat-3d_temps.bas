1 REM HEAT-3D with the neighbours' subscripts in temporaries set between the FORs
10 N = 6 : TSTEPS = 2
20 DIM A(5,5,5), B(5,5,5)
40 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : FOR K = 0 TO N-1 : A(I,J,K) = (I + J + (N - K)) * 10 / N : B(I,J,K) = A(I,J,K) : NEXT K, J, I
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N-2
115 IM = I - 1 : IP = I + 1
120 FOR J = 1 TO N-2
125 JM = J - 1 : JP = J + 1
130 FOR K = 1 TO N-2
140 B(I,J,K) = .125*(A(IP,J,K) - 2*A(I,J,K) + A(IM,J,K)) + .125*(A(I,JP,K) - 2*A(I,J,K) + A(I,JM,K)) + .125*(A(I,J,K+1) - 2*A(I,J,K) + A(I,J,K-1)) + A(I,J,K)
150 NEXT K
160 NEXT J
170 NEXT I
210 FOR I = 1 TO N-2
220 FOR J = 1 TO N-2 STEP 1
230 FOR K = 1 TO N-2 STEP 1
240 A(I,J,K) = .125*(B(I+1,J,K) - 2*B(I,J,K) + B(I-1,J,K)) + .125*(B(I,J+1,K) - 2*B(I,J,K) + B(I,J-1,K)) + .125*(B(I,J,K+1) - 2*B(I,J,K) + B(I,J,K-1)) + B(I,J,K)
250 NEXT K : NEXT J : NEXT I
280 NEXT T
550 PRINT A(2,2,2)
