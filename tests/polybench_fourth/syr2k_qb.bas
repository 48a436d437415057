' SYR2K: lower triangle of C := ALPHA*A*B' + ALPHA*B*A' + BETA*C (PolyBench/C 4.2)
' QuickBASIC: SUB-free main program, DOUBLE arrays, DEFINT counters, an accumulator per element
DEFINT I-N
CONST N = 12, M = 10
DIM A(1 TO N, 1 TO M) AS DOUBLE, B(1 TO N, 1 TO M) AS DOUBLE, C(1 TO N, 1 TO N) AS DOUBLE
DIM ALPHA AS DOUBLE, BETA AS DOUBLE, ACC AS DOUBLE, TOTAL AS DOUBLE
ALPHA = 1.5#: BETA = 1.2#
FOR I = 1 TO N
    FOR J = 1 TO M
        A(I, J) = ((I * J + 1) MOD N) / N
        B(I, J) = ((I * J + 2) MOD M) / M
    NEXT J
    FOR J = 1 TO N
        C(I, J) = ((I * J + 3) MOD N) / M
    NEXT J
NEXT I

FOR I = 1 TO N
    FOR J = 1 TO I
        ACC = C(I, J) * BETA
        FOR K = 1 TO M
            ACC = ACC + A(J, K) * ALPHA * B(I, K) + B(J, K) * ALPHA * A(I, K)
        NEXT K
        C(I, J) = ACC
    NEXT J
NEXT I

TOTAL = 0
FOR I = 1 TO N
    FOR J = 1 TO I
        TOTAL = TOTAL + C(I, J)
    NEXT J
NEXT I
PRINT USING "syr2k #####.######"; TOTAL
