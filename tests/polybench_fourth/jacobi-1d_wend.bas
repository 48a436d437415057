10 REM JACOBI-1D (PolyBench/C 4.2): a WHILE ... WEND time loop, bounds N - 2
20 DEFINT I-N, T: N = 20: TSTEPS = 6
30 DIM A(N), B(N)
40 FOR I = 0 TO N - 1: A(I) = (I + 2) / N: B(I) = (I + 3) / N: NEXT I
100 T = 0
105 WHILE T < TSTEPS
110 FOR I = 1 TO N - 2: B(I) = .33333 * (A(I - 1) + A(I) + A(I + 1)): NEXT I
140 FOR I = 1 TO N - 2: A(I) = .33333 * (B(I - 1) + B(I) + B(I + 1)): NEXT I
150 T = T + 1
160 WEND
500 FOR I = 0 TO N - 1 STEP 5: PRINT USING "#.######"; A(I);: NEXT I: PRINT
510 END
