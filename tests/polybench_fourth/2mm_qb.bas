' 2mm: D := ALPHA*A*B*C + BETA*D (PolyBench/C 4.2), QuickBASIC with typed arrays
CONST NI = 8, NJ = 9, NK = 10, NL = 12
DIM A(1 TO NI, 1 TO NK) AS DOUBLE, B(1 TO NK, 1 TO NJ) AS DOUBLE
DIM C(1 TO NJ, 1 TO NL) AS DOUBLE, D(1 TO NI, 1 TO NL) AS DOUBLE
DIM TMP(1 TO NI, 1 TO NJ) AS DOUBLE
DIM ALPHA AS DOUBLE, BETA AS DOUBLE, TOTAL AS DOUBLE
DIM I AS INTEGER, J AS INTEGER, K AS INTEGER
ALPHA = 1.5: BETA = 1.2
FOR I = 1 TO NI: FOR K = 1 TO NK: A(I, K) = ((I * K + 1) MOD NI) / NI: NEXT K: NEXT I
FOR K = 1 TO NK: FOR J = 1 TO NJ: B(K, J) = (K * (J + 1) MOD NJ) / NJ: NEXT J: NEXT K
FOR J = 1 TO NJ: FOR K = 1 TO NL: C(J, K) = ((J * (K + 3) + 1) MOD NL) / NL: NEXT K: NEXT J
FOR I = 1 TO NI: FOR K = 1 TO NL: D(I, K) = (I * (K + 2) MOD NK) / NK: NEXT K: NEXT I

FOR I = 1 TO NI
    FOR J = 1 TO NJ
        TMP(I, J) = 0
        FOR K = 1 TO NK
            TMP(I, J) = TMP(I, J) + ALPHA * A(I, K) * B(K, J)
        NEXT K
    NEXT J
NEXT I
FOR I = 1 TO NI
    FOR J = 1 TO NL
        D(I, J) = D(I, J) * BETA
        FOR K = 1 TO NJ
            D(I, J) = D(I, J) + TMP(I, K) * C(K, J)
        NEXT K
    NEXT J
NEXT I

TOTAL = 0
FOR I = 1 TO NI
    FOR J = 1 TO NL
        TOTAL = TOTAL + D(I, J)
    NEXT J
NEXT I
PRINT USING "checksum #####.######"; TOTAL
PRINT D(1, 1), D(NI, NL)
