' COVARIANCE (PolyBench/C 4.2), QuickBASIC: DIM SHARED-free main program, column means,
' centring, the upper triangle by J = I TO M and its mirror; sums in a DOUBLE temporary
DEFINT I-K
DIM M AS INTEGER, N AS INTEGER
M = 10: N = 12
DIM DAT(1 TO N, 1 TO M) AS DOUBLE, COV(1 TO M, 1 TO M) AS DOUBLE, MEAN(1 TO M) AS DOUBLE
DIM FLOATN AS DOUBLE, ACC AS DOUBLE
FLOATN = N
FOR I = 1 TO N
    FOR J = 1 TO M
        DAT(I, J) = (I * J) / M
    NEXT J
NEXT I

FOR J = 1 TO M
    ACC = 0#
    FOR I = 1 TO N
        ACC = ACC + DAT(I, J)
    NEXT I
    MEAN(J) = ACC / FLOATN
NEXT J
FOR I = 1 TO N
    FOR J = 1 TO M
        DAT(I, J) = DAT(I, J) - MEAN(J)
    NEXT J
NEXT I
FOR I = 1 TO M
    FOR J = I TO M
        ACC = 0#
        FOR K = 1 TO N
            ACC = ACC + DAT(K, I) * DAT(K, J)
        NEXT K
        ACC = ACC / (FLOATN - 1#)
        COV(I, J) = ACC
        COV(J, I) = ACC
    NEXT J
NEXT I

FOR I = 1 TO M STEP 3
    PRINT USING "###.##### "; COV(I, 1); COV(I, I); COV(I, M)
NEXT I
