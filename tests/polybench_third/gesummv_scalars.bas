1 REM GESUMMV with its row sums in scalars: Y = ALPHA*A*X + BETA*B*X
10 N = 7: ALPHA = 1.5: BETA = 1.2
20 DIM A(7,7), B(7,7), X(7), Y(7)
30 FOR I = 0 TO N - 1
40 X(I) = (I MOD N) / N
50 FOR J = 0 TO N - 1: A(I,J) = ((I*J+1) MOD N) / N: B(I,J) = ((I*J+2) MOD N) / N: NEXT J
60 NEXT I
100 FOR I = 0 TO N - 1
110 T1 = 0: T2 = 0
130 FOR J = 0 TO N - 1
140 T1 = T1 + A(I,J) * X(J)
150 T2 = T2 + B(I,J) * X(J)
160 NEXT J
170 Y(I) = ALPHA * T1 + BETA * T2
180 NEXT I
500 FOR I = 0 TO N - 1: S = S + Y(I) * (I + 1): NEXT I
550 PRINT "GESUMMV"; S
