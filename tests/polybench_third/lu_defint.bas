1 REM LU (in place), DEFINT I-N, with the dot products in a scalar W
5 DEFINT I-N
10 N = 7
20 DIM A(7,7)
30 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: A(I,J) = ((I*J) MOD N) / N: NEXT J: A(I,I) = A(I,I) + N: NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO I - 1
120 W = A(I,J)
130 FOR K = 0 TO J - 1: W = W - A(I,K) * A(K,J): NEXT K
140 A(I,J) = W / A(J,J)
150 NEXT J
160 FOR J = I TO N - 1
170 W = A(I,J)
180 FOR K = 0 TO I - 1: W = W - A(I,K) * A(K,J): NEXT K
190 A(I,J) = W
200 NEXT J
210 NEXT I
500 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: S = S + A(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "LU"; S
