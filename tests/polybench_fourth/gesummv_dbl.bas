10 REM GESUMMV: Y := ALPHA*A*X + BETA*B*X (PolyBench/C 4.2), double arrays, long names
20 DEFINT I-N
30 N = 18: ALPHA# = 1.5: BETA# = 1.2
40 DIM A#(N, N), B#(N, N), X#(N), Y#(N), TMP#(N)
50 FOR I = 0 TO N - 1: X#(I) = (I MOD N) / N
60 FOR J = 0 TO N - 1: A#(I, J) = ((I * J + 1) MOD N) / N: B#(I, J) = ((I * J + 2) MOD N) / N: NEXT J: NEXT I
100 FOR I = 0 TO N - 1
110 TMP#(I) = 0#: Y#(I) = 0#
120 FOR J = 0 TO N - 1
130 TMP#(I) = A#(I, J) * X#(J) + TMP#(I)
140 Y#(I) = B#(I, J) * X#(J) + Y#(I)
150 NEXT J
160 Y#(I) = ALPHA# * TMP#(I) + BETA# * Y#(I)
170 NEXT I
500 TOTAL# = 0: FOR I = 0 TO N - 1: TOTAL# = TOTAL# + Y#(I): NEXT I
510 PRINT USING "####.#####"; TOTAL#; Y#(0); Y#(N - 1)
520 END
