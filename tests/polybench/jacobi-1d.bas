1 REM JACOBI-1D: 3-point stencil, two sweeps per time step
10 LET N = 12 : LET TSTEPS = 4
20 DIM A(12), B(12)
30 FOR I = 0 TO N - 1 : LET A(I) = (I + 2) / N : LET B(I) = (I + 3) / N : NEXT I
100 FOR T = 1 TO TSTEPS
110 FOR I = 1 TO N - 2
120 LET B(I) = 0.33333 * (A(I - 1) + A(I) + A(I + 1))
130 NEXT I
140 FOR I = 1 TO N - 2
150 LET A(I) = 0.33333 * (B(I - 1) + B(I) + B(I + 1))
160 NEXT I
170 NEXT T
500 FOR I = 0 TO N - 1 : LET S = S + A(I) * (I + 1) : NEXT I
550 PRINT "JACOBI-1D"; S
