10 REM GEMM with the A element in a temporary
20 N = 6 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(5,5), B(5,5), C(5,5)
40 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
50 A(I,J) = (I*J+1)/N : B(I,J) = (I+J)/N : C(I,J) = (I-J)/N
60 NEXT J, I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 C(I,J) = C(I,J) * BETA
130 NEXT J
140 FOR K = 0 TO N - 1
145 T = ALPHA * A(I,K)
150 FOR J = 0 TO N - 1
160 C(I,J) = C(I,J) + T * B(K,J)
170 NEXT J
180 NEXT K
190 NEXT I
500 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : S = S + C(I,J) * (I+1) : NEXT J, I
550 PRINT "GEMM"; S
