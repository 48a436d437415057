' LU decomposition in place, no pivoting (PolyBench/C 4.2), QuickBASIC
' with a SINGLE accumulator W and loops bounded by I - 1
CONST N = 12
DIM A(1 TO N, 1 TO N)
DIM I AS INTEGER, J AS INTEGER, K AS INTEGER, W AS SINGLE
' A positive definite matrix, as PolyBench's init_array makes (B * B')
DIM B(1 TO N, 1 TO N)
FOR I = 1 TO N
    FOR J = 1 TO N
        IF J <= I THEN B(I, J) = ((-J MOD N) + N) / N + 1 ELSE B(I, J) = 0
    NEXT J
    B(I, I) = 1
NEXT I
FOR I = 1 TO N
    FOR J = 1 TO N
        W = 0
        FOR K = 1 TO N
            W = W + B(I, K) * B(J, K)
        NEXT K
        A(I, J) = W
    NEXT J
NEXT I

FOR I = 1 TO N
    FOR J = 1 TO I - 1
        W = A(I, J)
        FOR K = 1 TO J - 1
            W = W - A(I, K) * A(K, J)
        NEXT K
        A(I, J) = W / A(J, J)
    NEXT J
    FOR J = I TO N
        W = A(I, J)
        FOR K = 1 TO I - 1
            W = W - A(I, K) * A(K, J)
        NEXT K
        A(I, J) = W
    NEXT J
NEXT I

FOR I = 1 TO N STEP 4
    PRINT USING "####.#### "; A(I, 1); A(I, I); A(I, N)
NEXT I
