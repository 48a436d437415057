1 REM GRAMSCHMIDT with a scalar accumulator S for R(K,J)
10 M = 5 : N = 4
20 DIM A(5,4), Q(5,4), R(4,4)
30 FOR I = 0 TO M-1 : FOR J = 0 TO N-1 : A(I,J) = ((I*J) MOD M + 1) / M * 100 + 10 * (I = J) : NEXT J : NEXT I
100 FOR K = 0 TO N - 1
110 NRM = 0
120 FOR I = 0 TO M - 1 : NRM = NRM + A(I,K) * A(I,K) : NEXT I
130 R(K,K) = SQR(NRM)
140 FOR I = 0 TO M - 1 : Q(I,K) = A(I,K) / R(K,K) : NEXT I
150 FOR J = K + 1 TO N - 1
160 S = 0
170 FOR I = 0 TO M - 1 : S = S + Q(I,K) * A(I,J) : NEXT I
180 R(K,J) = S
190 FOR I = 0 TO M - 1 : A(I,J) = A(I,J) - Q(I,K) * S : NEXT I
200 NEXT J
210 NEXT K
500 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : T = T + R(I,J) : NEXT J : NEXT I
550 PRINT T
