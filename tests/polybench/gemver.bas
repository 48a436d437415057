1 REM GEMVER: A = A + U1*V1' + U2*V2', X = X + BETA*A'*Y + Z, W = W + ALPHA*A*X
10 LET N = 7 : LET ALPHA = 1.5 : LET BETA = 1.2
20 DIM A(7,7), U1(7), V1(7), U2(7), V2(7), W(7), X(7), Y(7), Z(7)
30 FOR I = 0 TO N - 1
40 LET U1(I) = I : LET U2(I) = (I+1)/N/2 : LET V1(I) = (I+1)/N/4 : LET V2(I) = (I+1)/N/6
45 LET Y(I) = (I+1)/N/8 : LET Z(I) = (I+1)/N/9 : LET X(I) = 0 : LET W(I) = 0
50 FOR J = 0 TO N - 1
60 LET A(I,J) = (I*J)/N
70 NEXT J
80 NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 LET A(I,J) = A(I,J) + U1(I) * V1(J) + U2(I) * V2(J)
130 NEXT J
140 NEXT I
200 FOR I = 0 TO N - 1
210 FOR J = 0 TO N - 1
220 LET X(I) = X(I) + BETA * A(J,I) * Y(J)
230 NEXT J
240 NEXT I
300 FOR I = 0 TO N - 1
310 LET X(I) = X(I) + Z(I)
320 NEXT I
400 FOR I = 0 TO N - 1
410 FOR J = 0 TO N - 1
420 LET W(I) = W(I) + ALPHA * A(I,J) * X(J)
430 NEXT J
440 NEXT I
500 FOR I = 0 TO N - 1 : LET S = S + W(I) * (I + 1) : NEXT I
550 PRINT "GEMVER"; S
