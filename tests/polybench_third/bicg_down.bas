1 REM BICG, loops that count down (STEP -1): S = A'*R, Q = A*P
10 M = 6: N = 7
20 DIM A(7,6), R(7), P(6), S(6), Q(7)
30 FOR I = N - 1 TO 0 STEP -1
40 R(I) = I / N
50 FOR J = M - 1 TO 0 STEP -1: A(I,J) = ((I*(J+1)) MOD N) / N: NEXT J
60 NEXT I
70 FOR J = 0 TO M - 1: P(J) = (J MOD M) / M: NEXT J
100 FOR J = M - 1 TO 0 STEP -1
110 S(J) = 0
120 NEXT J
130 FOR I = N - 1 TO 0 STEP -1
140 Q(I) = 0
150 FOR J = M - 1 TO 0 STEP -1
160 S(J) = S(J) + R(I) * A(I,J)
170 Q(I) = Q(I) + A(I,J) * P(J)
180 NEXT J
190 NEXT I
500 FOR I = 0 TO N - 1: X = X + Q(I) * (I + 1): NEXT I
510 FOR J = 0 TO M - 1: X = X + S(J) * (J + 3): NEXT J
550 PRINT "BICG"; X
