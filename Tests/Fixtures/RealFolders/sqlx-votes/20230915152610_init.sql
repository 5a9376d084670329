CREATE TABLE users (
    id      integer   not null primary key -- rowid
  , secret  text      not null unique
  , created TIMESTAMP not null DEFAULT CURRENT_TIMESTAMP
);

-- a top-level post has no parent; a reply's parent is the post it answers
create table posts (
      id          integer   primary key -- rowid
    , parent_id   integer   references posts (id)
    , content     text      not null
    , author_id   integer   not null references users (id)
    , created     TIMESTAMP not null DEFAULT CURRENT_TIMESTAMP
);

create table vote_history (
      user_id   not null references users (id)
    , post_id   not null references posts (id)
    , direction integer not null
    , created   TIMESTAMP not null DEFAULT CURRENT_TIMESTAMP
);

-- each user's latest vote on each post; a cleared vote (0) returns no row
CREATE VIEW current_vote as
with latest as (
    SELECT
        user_id
      , post_id
      -- a bare column beside max(): SQLite takes it from the row with the max
      -- https://www.sqlite.org/lang_select.html#bareagg
      , direction
      , max(created) AS created
    FROM vote_history
    GROUP BY user_id, post_id
)
select *
from latest
where direction != 0;

create view current_tally as
select
    post_id
  , sum(case direction when 1 then 1 else 0 end) as upvotes
  , count(*) as votes
from current_vote
group by post_id;

create trigger after_vote after insert on vote_history
when new.direction not in (-1, 0, 1)
begin
    select raise(abort, 'direction must be -1, 0 or 1');
end;

create index vote_history_post on vote_history (post_id, created);
