-- The vectors of an embedding set (symbols, memories): a sqlite-vec vec0
-- table whose rowid is the row of the set's embeddings table. int8
-- components scaled per vector: cosine distance does not see the scale,
-- and the table is a quarter of float32's size. {{name}} and {{dim}} are
-- filled in when the model, and so the dimension, is known.
CREATE VIRTUAL TABLE {{name}} USING vec0(embedding int8[{{dim}}] distance_metric=cosine);
