delete from PERSON where id=1;
