' TRMM: B := ALPHA * A' * B, A unit lower triangular (PolyBench/C 4.2), QuickBASIC DO loops
DEFDBL A-Z
CONST M = 10, N = 12
DIM A(0 TO M - 1, 0 TO M - 1), B(0 TO M - 1, 0 TO N - 1)
ALPHA = 1.5
FOR I% = 0 TO M - 1
    FOR J% = 0 TO I% - 1
        A(I%, J%) = ((I% + J%) MOD M) / M
    NEXT J%
    A(I%, I%) = 1
    FOR J% = 0 TO N - 1
        B(I%, J%) = ((N + (I% - J%)) MOD N) / N
    NEXT J%
NEXT I%

FOR I% = 0 TO M - 1
    FOR J% = 0 TO N - 1
        K% = I% + 1
        DO WHILE K% < M
            B(I%, J%) = B(I%, J%) + A(K%, I%) * B(K%, J%)
            K% = K% + 1
        LOOP
        B(I%, J%) = ALPHA * B(I%, J%)
    NEXT J%
NEXT I%

FOR I% = 0 TO M - 1 STEP 3
    PRINT USING "##.#####  ##.#####"; B(I%, 0); B(I%, N - 1)
NEXT I%
