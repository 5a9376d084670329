-- a denormalised score per post, kept by the tally job
create table post_scores (
      post_id integer not null primary key references posts (id)
    , score   real    not null default 0
) strict;
