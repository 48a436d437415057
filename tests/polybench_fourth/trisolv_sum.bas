10 REM TRISOLV (PolyBench/C 4.2): forward substitution, the dot product in a scalar
20 DEFINT I, J, N: N = 16
30 DIM L(N, N), X(N), B(N)
40 FOR I = 0 TO N - 1: X(I) = -999: B(I) = I
50 FOR J = 0 TO I: L(I, J) = (I + N - J + 1) * 2 / N: NEXT J, I
100 FOR I = 0 TO N - 1
110 DOT = B(I)
120 FOR J = 0 TO I - 1: DOT = DOT - L(I, J) * X(J): NEXT J
130 X(I) = DOT / L(I, I)
140 NEXT I
500 FOR I = 0 TO N - 1 STEP 3: PRINT USING "##.#####"; X(I);: NEXT I: PRINT
510 END
