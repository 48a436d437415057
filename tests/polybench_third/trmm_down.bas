1 REM TRMM, B = ALPHA * A' * B with A unit lower triangular; the rows count down
10 M = 6: N = 7: ALPHA = 1.5
20 DIM A(6,6), B(6,7)
30 FOR I = 0 TO M - 1
40 FOR J = 0 TO I - 1: A(I,J) = ((I+J) MOD M) / M: NEXT J
50 A(I,I) = 1
60 FOR J = 0 TO N - 1: B(I,J) = ((N+(I-J)) MOD N) / N: NEXT J
70 NEXT I
100 FOR I = 0 TO M - 1
110 FOR J = N - 1 TO 0 STEP -1
120 FOR K = I + 1 TO M - 1
130 B(I,J) = B(I,J) + A(K,I) * B(K,J)
140 NEXT K
150 B(I,J) = ALPHA * B(I,J)
160 NEXT J
170 NEXT I
500 FOR I = 0 TO M - 1: FOR J = 0 TO N - 1: S = S + B(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "TRMM"; S
