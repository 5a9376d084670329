create table groups (
  id integer primary key,
  name text not null unique collate nocase
);
create table contact_groups (
  contact_id integer not null references contacts(id) on delete cascade,
  group_id integer not null references groups(id) on delete cascade,
  primary key (contact_id, group_id)
) without rowid;
