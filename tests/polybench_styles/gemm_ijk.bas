10 REM GEMM, i-j-k order with a scalar accumulator
20 N = 6 : ALPHA = 1.5 : BETA = 1.2
30 DIM A(5,5), B(5,5), C(5,5)
40 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
50 A(I,J) = (I*J+1)/N : B(I,J) = (I+J)/N : C(I,J) = (I-J)/N
60 NEXT J, I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 ACC = 0
130 FOR K = 0 TO N - 1
140 ACC = ACC + A(I,K) * B(K,J)
150 NEXT K
160 C(I,J) = BETA * C(I,J) + ALPHA * ACC
170 NEXT J
190 NEXT I
500 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : S = S + C(I,J) * (I+1) : NEXT J, I
550 PRINT "GEMM"; S
