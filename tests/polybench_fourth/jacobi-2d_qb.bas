' JACOBI-2D (PolyBench/C 4.2), QuickBASIC: DO WHILE time loop, bounds as N - 2
DEFINT I-N, T
N = 14: TSTEPS = 4
DIM A(0 TO N - 1, 0 TO N - 1) AS SINGLE, B(0 TO N - 1, 0 TO N - 1) AS SINGLE
FOR I = 0 TO N - 1
    FOR J = 0 TO N - 1
        A(I, J) = (I * (J + 2) + 2) / N
        B(I, J) = (I * (J + 3) + 3) / N
    NEXT J
NEXT I
T = 1
DO WHILE T <= TSTEPS
    FOR I = 1 TO N - 2
        FOR J = 1 TO N - 2
            B(I, J) = .2 * (A(I, J) + A(I, J - 1) + A(I, 1 + J) + A(1 + I, J) + A(I - 1, J))
        NEXT J
    NEXT I
    FOR I = 1 TO N - 2
        FOR J = 1 TO N - 2
            A(I, J) = .2 * (B(I, J) + B(I, J - 1) + B(I, 1 + J) + B(1 + I, J) + B(I - 1, J))
        NEXT J
    NEXT I
    T = T + 1
LOOP
FOR I = 0 TO N - 1 STEP 4
    PRINT USING "###.### "; A(I, 1); A(I, N \ 2); A(I, N - 2)
NEXT I
