' JACOBI-1D (PolyBench/C 4.2), QuickBASIC with DOUBLE arrays, a DO ... LOOP UNTIL time loop
' and the weight 0.33333 written as a plain constant
DEFINT I-N, T
CONST N = 20, TSTEPS = 5
DIM A(0 TO N - 1) AS DOUBLE, B(0 TO N - 1) AS DOUBLE
FOR I = 0 TO N - 1
    A(I) = (I + 2#) / N
    B(I) = (I + 3#) / N
NEXT I
T = 0
DO
    FOR I = 1 TO N - 2
        B(I) = .33333 * (A(I - 1) + A(I) + A(I + 1))
    NEXT I
    FOR I = 1 TO N - 2
        A(I) = .33333 * (B(I - 1) + B(I) + B(I + 1))
    NEXT I
    T = T + 1
LOOP UNTIL T >= TSTEPS
FOR I = 0 TO N - 1 STEP 5
    PRINT USING "#.########"; A(I)
NEXT I
