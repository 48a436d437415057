10 REM GEMVER (PolyBench/C 4.2): rank-2 update, two matrix-vector products, long names
20 N = 16: ALPHA = 1.5: BETA = 1.2: RN = N
30 DIM A(N, N), U1(N), V1(N), U2(N), V2(N), W(N), X(N), Y(N), Z(N)
40 FOR I = 0 TO N - 1
50 U1(I) = I: U2(I) = ((I + 1) / RN) / 2: V1(I) = ((I + 1) / RN) / 4: V2(I) = ((I + 1) / RN) / 6
60 Y(I) = ((I + 1) / RN) / 8: Z(I) = ((I + 1) / RN) / 9: X(I) = 0: W(I) = 0
70 FOR J = 0 TO N - 1: A(I, J) = ((I * J) MOD N) / RN: NEXT J
80 NEXT I
100 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1
110 A(I, J) = A(I, J) + U1(I) * V1(J) + U2(I) * V2(J)
120 NEXT J: NEXT I
200 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: X(I) = X(I) + BETA * A(J, I) * Y(J): NEXT J: NEXT I
300 FOR I = 0 TO N - 1: X(I) = X(I) + Z(I): NEXT I
400 FOR I = 0 TO N - 1
410 WSUM = W(I)
420 FOR J = 0 TO N - 1: WSUM = WSUM + ALPHA * A(I, J) * X(J): NEXT J
430 W(I) = WSUM
440 NEXT I
500 CHECKSUM = 0: FOR I = 0 TO N - 1: CHECKSUM = CHECKSUM + W(I) / 1000: NEXT I
510 PRINT USING "W: #####.###"; CHECKSUM
520 PRINT USING "X: ####.####"; X(0); X(N - 1)
530 END
