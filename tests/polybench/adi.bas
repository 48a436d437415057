1 REM ADI: alternating direction implicit solver (column sweep, then row sweep)
10 LET N = 7 : LET TSTEPS = 2
20 DIM U(7,7), V(7,7), P(7,7), Q(7,7)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET U(I,J) = (I + N - J) / N : NEXT J
50 NEXT I
60 LET DX = 1 / N : LET DY = 1 / N : LET DT = 1 / TSTEPS
70 LET B1 = 2 : LET B2 = 1 : LET M1 = B1 * DT / (DX * DX) : LET M2 = B2 * DT / (DY * DY)
80 LET A = -M1 / 2 : LET B = 1 + M1 : LET C = A : LET D = -M2 / 2 : LET E = 1 + M2 : LET F = D
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N - 2
120 LET V(0,I) = 1 : LET P(I,0) = 0 : LET Q(I,0) = V(0,I)
130 FOR J = 1 TO N - 2
140 LET P(I,J) = -C / (A * P(I,J-1) + B)
150 LET Q(I,J) = (-D * U(J,I-1) + (1 + 2 * D) * U(J,I) - F * U(J,I+1) - A * Q(I,J-1)) / (A * P(I,J-1) + B)
160 NEXT J
170 LET V(N-1,I) = 1
180 FOR J = N - 2 TO 1 STEP -1
190 LET V(J,I) = P(I,J) * V(J+1,I) + Q(I,J)
200 NEXT J
210 NEXT I
300 FOR I = 1 TO N - 2
310 LET U(I,0) = 1 : LET P(I,0) = 0 : LET Q(I,0) = U(I,0)
320 FOR J = 1 TO N - 2
330 LET P(I,J) = -F / (D * P(I,J-1) + E)
340 LET Q(I,J) = (-A * V(I-1,J) + (1 + 2 * A) * V(I,J) - C * V(I+1,J) - D * Q(I,J-1)) / (D * P(I,J-1) + E)
350 NEXT J
360 LET U(I,N-1) = 1
370 FOR J = N - 2 TO 1 STEP -1
380 LET U(I,J) = P(I,J) * U(I,J+1) + Q(I,J)
390 NEXT J
400 NEXT I
410 NEXT T
500 FOR I = 0 TO N - 1
510 FOR J = 0 TO N - 1
520 LET S = S + U(I,J) * (I + 2*J)
530 NEXT J
540 NEXT I
550 PRINT "ADI"; S
