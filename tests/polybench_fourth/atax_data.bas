10 REM ATAX: Y := A'(A X) (PolyBench/C 4.2), sizes READ from DATA, DEFSNG
20 DEFSNG A-H, O-Z: DEFINT I-N
30 READ M, N
40 DIM A(M, N), X(N), Y(N), TMP(M)
50 RN = N
60 FOR I = 0 TO N - 1: X(I) = 1 + I / RN: NEXT I
70 FOR I = 0 TO M - 1: FOR J = 0 TO N - 1: A(I, J) = ((I + J) MOD N) / (5 * M): NEXT J: NEXT I
100 FOR I = 0 TO N - 1: Y(I) = 0: NEXT I
110 FOR I = 0 TO M - 1
120 ACC = 0
130 FOR J = 0 TO N - 1: ACC = ACC + A(I, J) * X(J): NEXT J
140 TMP(I) = ACC
150 NEXT I
160 FOR J = 0 TO N - 1
170 FOR I = 0 TO M - 1: Y(J) = Y(J) + A(I, J) * TMP(I): NEXT I
180 NEXT J
500 FOR I = 0 TO N - 1 STEP 4: PRINT USING "Y(##) = ###.#####"; I; Y(I): NEXT I
510 DATA 14, 16
520 END
