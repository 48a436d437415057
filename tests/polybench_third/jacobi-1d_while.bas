1 REM JACOBI-1D, the time loop a WHILE ... WEND
10 N = 30: TSTEPS = 5
20 DIM A(30), B(30)
30 FOR I = 0 TO N - 1: A(I) = (I + 2) / N: B(I) = (I + 3) / N: NEXT I
100 T = 0
105 WHILE T < TSTEPS
110 FOR I = 1 TO N - 2
120 B(I) = 0.33333 * (A(I-1) + A(I) + A(I+1))
130 NEXT I
140 FOR I = 1 TO N - 2
150 A(I) = 0.33333 * (B(I-1) + B(I) + B(I+1))
160 NEXT I
170 T = T + 1
180 WEND
500 FOR I = 0 TO N - 1: S = S + A(I) * (I + 1): NEXT I
550 PRINT "JACOBI-1D"; S
